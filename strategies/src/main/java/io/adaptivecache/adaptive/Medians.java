package io.adaptivecache.adaptive;

import java.util.List;
import java.util.function.ToDoubleFunction;

import io.adaptivecache.metrics.WindowSample;

/**
 * The medians of some windows' figures, as a trial compares them: a median, so that one noisy
 * window cannot overturn a trial.
 *
 * @param latency mean latency (nanoseconds)
 * @param throughput calls per second
 * @param concurrency calls in flight
 * @param roundTrip the shortest call (nanoseconds), the round trip no strategy hides or adds
 * @param valueBytes mean value bytes per call
 */
record Medians(double latency, double throughput, double concurrency, double roundTrip, double valueBytes) {

    static Medians of(List<WindowSample> windows) {
        return new Medians(median(windows, WindowSample::meanLatencyNanos), median(windows, WindowSample::throughput),
                median(windows, WindowSample::concurrency), median(windows, WindowSample::minLatencyNanos),
                median(windows, WindowSample::meanValueBytes));
    }

    private static double median(List<WindowSample> windows, ToDoubleFunction<WindowSample> figure) {
        return Figures.median(windows.stream().mapToDouble(figure).toArray());
    }
}
