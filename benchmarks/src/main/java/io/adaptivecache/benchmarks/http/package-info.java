/**
 * The end-to-end benchmark: the items web application
 * ({@link io.adaptivecache.benchmarks.http.app.ItemsApplication}) in each of its variants, a JVM
 * apiece, loaded over HTTP by {@code wrk} at a few connection counts, in alternating slices with
 * an A/A control; requests per second and p99 latency as ratios with 95% intervals and verdicts,
 * computed the way the pair harness ({@code io.adaptivecache.benchmarks.pairs}) computes its own.
 */
@NullMarked
package io.adaptivecache.benchmarks.http;

import org.jspecify.annotations.NullMarked;
