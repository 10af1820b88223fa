// Imported first by the CLI, before anything else allocates: the CLI's process does nothing but
// serve, so its young generation stays at V8's starting size instead of doubling up to 32 MB per
// semi-space under load. Under a benchmark's traffic that growth, and the garbage it let pile up,
// was a third of the process's peak memory; the price is more, smaller scavenges (a few percent of
// throughput, within the run-to-run noise here). With a young generation that small, the objects of
// the requests in flight at a scavenge are promoted and die in the old generation, which V8 lets grow
// up to four times its live size before a full collection: the old generation's limit grows by 30%
// of what lives instead (`--heap-growing-percent`), so that garbage is collected while small (after
// 100,000 chat requests in memory: 338-348 -> 240-256 MB of peak RSS, for about 4% more CPU per chat
// request than V8's default; 10% gave the same peak for about 7%: docs/performance.md).
// Not done by startEmulator: inside someone's test suite the process and its heap are theirs.
// NODE_OPTIONS (--max-semi-space-size...) still applies.
import { setFlagsFromString } from 'node:v8'

setFlagsFromString('--semi-space-growth-factor=1')
setFlagsFromString('--heap-growing-percent=30')
