import { MemoryCheckpointStore } from 'loopchart';
import { describeCheckpointStore } from './stores/describeCheckpointStore.js';

// One instance stands for "the same data, reopened": memory does not outlive it.
const shared = new MemoryCheckpointStore();
describeCheckpointStore('MemoryCheckpointStore', () => shared);
