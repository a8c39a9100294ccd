import { render } from 'preact';
import { AdvisePage } from './pages/advise.tsx';
import { FleetPage } from './pages/fleet.tsx';
import { JobPage } from './pages/job.tsx';
import { JobSetPage } from './pages/jobset.tsx';
import { adviseHref, fleetHref, useRoute } from './route.ts';
import { Text } from './parts/common.tsx';

// The jobfold web console: a fleet page, a Job page, a JobSet page and the advice over the query API.

function App() {
  const route = useRoute();
  const page = (() => {
    switch (route.page) {
      case 'fleet':
        return <FleetPage query={route.query} />;
      case 'job':
        return <JobPage key={`${route.cluster}/${route.namespace}/${route.name}`} {...route} />;
      case 'jobset':
        return <JobSetPage key={`${route.cluster}/${route.namespace}/${route.name}`} {...route} />;
      case 'advise':
        return <AdvisePage query={route.query} />;
      case 'missing':
        return <main><h1>No such page</h1><p>Nothing lives at <code><Text value={route.path} /></code>. <a href={fleetHref()}>Back to the fleet</a>.</p></main>;
    }
  })();
  return (
    <>
      <header class="top">
        <a class="brand" href={fleetHref()}>jobfold</a>
        <span class="muted">fleet of Kubernetes Jobs, folded from their logs</span>
        <a class="nav" href={adviseHref()}>Advise</a>
        <a class="api" href="/v1/openapi.json">API</a>
      </header>
      {page}
    </>
  );
}

const root = document.getElementById('app')!;
// Preact renders beside what is there: drop the loading line first.
root.textContent = '';
render(<App />, root);
