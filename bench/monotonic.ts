/**
 * A time in ms that two processes can compare: the system's monotonic clock (CLOCK_MONOTONIC,
 * process.hrtime), the same in every process. `performance.timeOrigin + performance.now()` is
 * not: each process takes its origin from the wall clock when it starts, and on this machine (a
 * VM whose wall clock is adjusted while it runs) two processes' origins drift apart by milliseconds
 * within a minute and by seconds over the fan-out bench, more than the latencies it measures.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
