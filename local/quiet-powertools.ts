// Imported first by the local runtime, before any handler module: Powertools reads these when
// its Logger and Metrics singletons are created (functions/commons/powertools.ts). Locally the
// handlers' JSON logs and EMF metrics would bury the summary, so by default only errors are
// logged and metrics are not printed. Set the variables yourself to see them, e.g.
// `POWERTOOLS_LOG_LEVEL=INFO POWERTOOLS_METRICS_DISABLED=false npm start`.

process.env['POWERTOOLS_LOG_LEVEL'] ??= 'ERROR';
process.env['POWERTOOLS_METRICS_DISABLED'] ??= 'true';
process.env['POWERTOOLS_SERVICE_NAME'] ??= 'jobfold-local';
