import { describe, expect, it } from 'vitest';
import {
  CLUSTER_SOURCE_PREFIX, COMMAND_DETAIL_TYPES, CONTROL_SOURCE, REJECTION_DETAIL_TYPE, REJECTION_SOURCE,
} from '../../cdk/bus-contract.ts';
import { REJECTION_DETAIL_TYPE as SINK_DETAIL_TYPE, REJECTION_SOURCE as SINK_SOURCE } from '../../functions/aws/bus-rejection-sink.ts';
import * as inbound from '../../shared/contract/inbound.ts';
import { OutboundDetailType } from '../../shared/contract/outbound.ts';

// cdk/ repeats the bus contract instead of importing shared/; these checks keep the copies equal.
describe('the bus contract as the stacks route it', () => {
  it('uses the inbound and control sources of shared/contract', () => {
    expect(CLUSTER_SOURCE_PREFIX).toBe(inbound.CLUSTER_SOURCE_PREFIX);
    expect(CONTROL_SOURCE).toBe(inbound.CONTROL_SOURCE);
  });

  it('routes to clusters every outbound detail-type except the condition changes', () => {
    const all = Object.values(OutboundDetailType);
    const conditions: string[] = [OutboundDetailType.JobConditionChanged, OutboundDetailType.JobSetConditionChanged];
    expect(new Set(COMMAND_DETAIL_TYPES)).toEqual(new Set(all.filter((t) => !conditions.includes(t))));
  });

  it('files the rejections the ingest function sends', () => {
    expect([REJECTION_SOURCE, REJECTION_DETAIL_TYPE]).toEqual([SINK_SOURCE, SINK_DETAIL_TYPE]);
  });
});
