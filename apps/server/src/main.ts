import { startServer } from './start.ts';

await startServer();
