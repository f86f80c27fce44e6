/**
 * A history checker for near caches, in the spirit of Jepsen's and Knossos's, sized for a cache:
 * several near-cache instances and plain writers that do not track run a seeded random mix of
 * reads and writes on a few hot keys of one real server while faults are injected; every
 * operation is recorded with its start, end and value ({@link io.adaptivecache.benchmarks.check.Op}),
 * and {@link io.adaptivecache.benchmarks.check.HistoryCheck} then verifies that every read
 * returned a value that was current at some moment within {@code [start - bound, end]}, the
 * bound being the near cache's {@code stalenessBound()}.
 *
 * <p>{@link io.adaptivecache.benchmarks.check.CheckRun} runs it (a CI test for a few seconds, the
 * benchmark's {@code --goals near-check} for a million reads and more);
 * {@link io.adaptivecache.benchmarks.check.FaultDriver} injects the faults;
 * {@link io.adaptivecache.benchmarks.check.CheckReport} writes the figures.
 */
package io.adaptivecache.benchmarks.check;
