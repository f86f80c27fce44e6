/**
 * The verdict harness: targets compared in short alternating slices, each target warm in a JVM
 * of its own and idle while another runs, so that drift of the host's load hits both sides of a
 * comparison almost equally. Every ratio is the median of per-cycle ratios with a bootstrap 95%
 * interval; slices that another process disturbed (read from {@code /proc}) are dropped; each
 * goal gets a verdict: met, missed or undecided.
 */
package io.adaptivecache.benchmarks.pairs;
