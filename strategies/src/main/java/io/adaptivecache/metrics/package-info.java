/**
 * Hot-path sensors of a template: every call's command, outcome and caller-observed latency
 * ({@link io.adaptivecache.call.CallObserver}), gathered per window into a
 * {@link io.adaptivecache.metrics.WindowSample} for the adaptive policy, and optionally bound to
 * Micrometer.
 */
@NullMarked
package io.adaptivecache.metrics;

import org.jspecify.annotations.NullMarked;
