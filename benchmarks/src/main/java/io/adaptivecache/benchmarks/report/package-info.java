/**
 * Turning a run into something to look at: medians and per-round ratios, Markdown tables, PNG
 * charts, the raw CSV and the facts of the machine and versions.
 */
package io.adaptivecache.benchmarks.report;
