/**
 * The workload: closed-loop callers over a filled key space, per-caller HdrHistograms, client
 * CPU, and the figures of one cell.
 */
package io.adaptivecache.benchmarks.load;
