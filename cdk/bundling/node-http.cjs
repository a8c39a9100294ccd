// node:http for the Lambda bundles as a CommonJS value (cdk/constructs/service-function.ts aliases
// `http` and `node:http` here). Imported as ESM, node:http is given a module facade that reads
// every export, and its lazy WebSocket/MessageEvent getters then load all of undici: ~50 ms of a
// cold start for nothing the functions use (bench/cold-start.ts). getBuiltinModule builds no facade.
module.exports = process.getBuiltinModule('node:http');
