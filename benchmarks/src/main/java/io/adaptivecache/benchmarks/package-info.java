/**
 * Side-by-side comparisons that back the project's defaults with figures. Targets are
 * interleaved and repeated in one run, and only ratios and medians are reported: on a shared
 * two-core machine a single measurement varies by about 20%.
 */
package io.adaptivecache.benchmarks;
