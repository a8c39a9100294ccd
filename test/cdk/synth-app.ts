import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../cdk/app.ts';

const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };

/** cdk.json's context (feature flags and defaults), as `cdk synth` sees it, plus the test's own. */
export function appContext(context: Record<string, unknown> = {}): Record<string, unknown> {
  // No stack is bundled: unit synth checks wiring, and bundling-spec bundles one function for real.
  return { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...context };
}

/**
 * The jobfold app as `cdk/app.ts` builds it (cdk-nag plugin included), with the given context.
 * CloudFormation's built-in schema validation is off: it adds ~10 s per synth and checks
 * CloudFormation's schemas, not our wiring.
 */
export function synthApp(context: Record<string, unknown> = {}) {
  const built = buildApp(new App({ context: appContext(context), builtinCloudFormationValidation: false }));
  return {
    ...built,
    stateful: Template.fromStack(built.stateful),
    service: Template.fromStack(built.service),
    statefulStack: built.stateful,
    serviceStack: built.service,
  };
}

/** A resource of the synthesized template, loosely typed for assertions. */
export type TemplateResource = { Type: string; Properties: Record<string, any> } & Record<string, any>;

/** Resources of one type, as [logicalId, resource] pairs. */
export function resourcesOf(template: Template, type: string): [string, TemplateResource][] {
  return Object.entries(template.findResources(type)) as [string, TemplateResource][];
}
