import { systemClock } from './clock.ts';
import { loadConfig } from './config.ts';
import { tuneGarbageCollector } from './garbage-collector.ts';

tuneGarbageCollector();

// One binary, three roles (HALYARD_ROLE, docs/deployment.md). Each loads only its own code: a sequencer never loads the HTTP app.
const config = loadConfig();
if (config.role === 'sequencer') await (await import('./cluster/sequencer-role.ts')).runSequencer(config);
else await (await import('./start.ts')).startServer(systemClock, config);
