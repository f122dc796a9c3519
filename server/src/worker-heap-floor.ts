import v8 from 'node:v8';

/**
 * The floor under a worker thread's old-generation collection limit, in MB. The server's main
 * thread starts with a higher one (`--initial-old-space-size`, node-flags.ts); V8 reads the flag
 * when it makes each thread's heap, so lowering it here, before any worker thread exists, gives the
 * worker threads (part readers, decode threads, the embedded database) the floor they had before,
 * and the memory it kept down, while the main thread keeps its own. main.ts imports this first.
 * Node warns that a V8 flag changed after start may do nothing or worse; this one is only read
 * when a heap is made, and `--trace-incremental-marking` shows it took: the main heap's limit is
 * 192 MB, each worker's 96 MB (docs/operations.md §1, "Node flags").
 */
const WORKER_OLD_SPACE_FLOOR_MB = 96;

v8.setFlagsFromString(`--initial-old-space-size=${WORKER_OLD_SPACE_FLOOR_MB}`);
