package io.adaptivecache.benchmarks.pairs;

import java.time.Duration;

/**
 * What every target JVM's client is given.
 *
 * @param timeout every client's command, operation and pool-wait timeout
 * @param window the adaptive switcher's window
 * @param dwell its least time between switches
 * @param trial its trial length
 */
public record ClientTimings(Duration timeout, Duration window, Duration dwell, Duration trial) {
}
