package io.adaptivecache.benchmarks.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class WrkResultTests {

    /** What Debian's wrk 4.1.0 printed with items.lua (its own lines, then the script's). */
    private static final String OUTPUT = """
            Running 2s test @ http://127.0.0.1:39743
              2 threads and 4 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency    49.76ms   15.62ms 154.46ms   90.62%
                Req/Sec    39.85     10.87    60.00     76.92%
              Latency Distribution
                 50%   44.03ms
                 75%   48.06ms
                 90%   63.25ms
                 99%  139.07ms
              158 requests in 2.04s, 18.64KB read
            Requests/sec:     77.59
            Transfer/sec:      9.15KB
            wrk-e2e requests=158 duration_us=2036401 bytes=19088 connect=0 read=0 write=0 status=0 timeout=0 p50_us=44026 \
            p90_us=63246 p99_us=139075 p999_us=154462 mean_us=49762.8 max_us=154462
            """;

    @Test
    void readsTheScriptsSummaryLineAmongWrksOwnLines() {
        WrkResult result = WrkResult.parse(OUTPUT);

        assertThat(result).isEqualTo(new WrkResult(158, 2_036_401, 19_088, 0, 0, 0, 0, 0, 44_026, 63_246, 139_075, 154_462, 49_762.8,
                154_462));
        assertThat(result.errors()).isZero();
        // wrk's own "Requests/sec" line is the same figure: requests over the run's duration.
        assertThat(result.requestsPerSecond()).isCloseTo(77.59, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void everyKindOfErrorCountsTimeoutsIncluded() {
        WrkResult result = WrkResult.parse("wrk-e2e requests=10 duration_us=1000000 bytes=1 connect=1 read=2 write=3 status=4"
                + " timeout=5 p50_us=1 p90_us=1 p99_us=1 p999_us=1 mean_us=1.0 max_us=1");

        assertThat(result).isEqualTo(new WrkResult(10, 1_000_000, 1, 1, 2, 3, 4, 5, 1, 1, 1, 1, 1.0, 1));
        assertThat(result.errors()).isEqualTo(15);
    }

    @Test
    void outputWithoutTheSummaryLineIsAnErrorThatQuotesIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> WrkResult.parse("unable to connect to 127.0.0.1:1 Connection refused"))
                .withMessageContaining("no 'wrk-e2e' line").withMessageContaining("Connection refused");
    }

    @Test
    void aSummaryLineWithoutAFigureIsAnError() {
        assertThatIllegalArgumentException().isThrownBy(() -> WrkResult.parse("wrk-e2e requests=10 duration_us=1000000"))
                .withMessageContaining("no bytes");
    }

    @Test
    void aRunOfNoDurationHasNoRate() {
        WrkResult result = WrkResult.parse("wrk-e2e requests=0 duration_us=0 bytes=0 connect=0 read=0 write=0 status=0"
                + " timeout=0 p50_us=0 p90_us=0 p99_us=0 p999_us=0 mean_us=0.0 max_us=0");

        assertThat(result.requestsPerSecond()).isZero();
    }
}
