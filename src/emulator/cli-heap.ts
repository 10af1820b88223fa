// Imported first by the CLI, before anything else allocates: the CLI's process does nothing but
// serve, so its young generation stays at V8's starting size instead of doubling up to 32 MB per
// semi-space under load. Under a benchmark's traffic that growth, and the garbage it let pile up,
// was a third of the process's peak memory; the price is more, smaller scavenges (a few percent of
// throughput, within the run-to-run noise here). Not done by startEmulator: inside someone's test
// suite the process and its heap are theirs. NODE_OPTIONS (--max-semi-space-size...) still applies.
import { setFlagsFromString } from 'node:v8'

setFlagsFromString('--semi-space-growth-factor=1')
