import { DeleteTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createLocalClient } from '../../local/dynamodb-local.ts';
import { ddbEndpoint } from './ddb-endpoint.ts';

// Integration setup file: every file starts on a DynamoDB Local without tables, by dropping what
// the previous file of this worker slot created. DynamoDB Local's CPU per request grows with the
// number of tables it holds (more than twice as much with 600 as with one), so tables left from
// earlier files would slow every later one. Tests still create the tables they use.
const client = createLocalClient(ddbEndpoint());
try {
  for (;;) {
    const { TableNames = [] } = await client.send(new ListTablesCommand({}));
    if (TableNames.length === 0) break;
    for (const TableName of TableNames) await client.send(new DeleteTableCommand({ TableName }));
  }
} finally {
  client.destroy();
}
