package io.adaptivecache.metrics;

import java.util.List;
import java.util.stream.LongStream;

import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The bounded ring of a template's last windows: order, the bound, and wrapping around it. */
class WindowHistoryTests {

    @Test
    void anEmptyHistoryShouldHaveNoWindowAndNoLatest() {
        WindowHistory history = new WindowHistory(3);

        assertThat(history.snapshot()).isEmpty();
        assertThat(history.latest()).isNull();
        assertThat(history.capacity()).isEqualTo(3);
    }

    @Test
    void windowsShouldComeBackOldestFirstWithTheirTimesAndSamplesWhileTheHistoryIsNotFull() {
        WindowHistory history = new WindowHistory(4);
        WindowSample first = sample(1);
        WindowSample second = sample(2);

        history.record(1_000, first);
        history.record(2_000, second);

        assertThat(history.snapshot()).containsExactly(new WindowHistory.Entry(1_000, first), new WindowHistory.Entry(2_000, second));
        assertThat(history.latest()).isEqualTo(new WindowHistory.Entry(2_000, second));
    }

    @Test
    void aFullHistoryShouldKeepOnlyTheNewestWindowsInOrderAcrossManyWrapArounds() {
        WindowHistory history = new WindowHistory(3);

        // 3 full turns and one more window: the ring's start is in its middle.
        for (long i = 1; i <= 10; i++) {
            history.record(i * 1_000, sample(i));
        }

        List<WindowHistory.Entry> kept = history.snapshot();
        assertThat(kept).extracting(WindowHistory.Entry::endEpochMillis).containsExactly(8_000L, 9_000L, 10_000L);
        assertThat(kept).extracting(entry -> entry.sample().calls()).containsExactly(8L, 9L, 10L);
        assertThat(history.latest().endEpochMillis()).isEqualTo(10_000);
        assertThat(history.recorded()).isEqualTo(10);
    }

    @Test
    void theHistoryShouldStayAtItsCapacityWhateverIsRecorded() {
        WindowHistory history = new WindowHistory(5);

        LongStream.rangeClosed(1, 1_000).forEach(i -> history.record(i, sample(i)));

        assertThat(history.snapshot()).hasSize(5).extracting(WindowHistory.Entry::endEpochMillis)
                .containsExactly(996L, 997L, 998L, 999L, 1_000L);
    }

    @Test
    void aHistoryOfOneShouldKeepTheLatestWindowOnly() {
        WindowHistory history = new WindowHistory(1);

        history.record(1, sample(1));
        history.record(2, sample(2));

        assertThat(history.snapshot()).extracting(WindowHistory.Entry::endEpochMillis).containsExactly(2L);
        assertThat(history.latest().endEpochMillis()).isEqualTo(2);
    }

    @Test
    void aSnapshotShouldBeACopyThatLaterWindowsDoNotChange() {
        WindowHistory history = new WindowHistory(2);
        history.record(1, sample(1));
        List<WindowHistory.Entry> before = history.snapshot();

        history.record(2, sample(2));
        history.record(3, sample(3));

        assertThat(before).extracting(WindowHistory.Entry::endEpochMillis).containsExactly(1L);
    }

    @Test
    void aHistoryShouldKeepAtLeastOneWindow() {
        assertThatIllegalArgumentException().isThrownBy(() -> new WindowHistory(0)).withMessageContaining("at least 1");
    }

    private static WindowSample sample(long calls) {
        return new WindowSample(0, 1_000_000_000L, StrategySpec.single(), 1, calls, 0, 0, calls, 0, 0, 0, 0, 0, 0, 0, 0, 0, null);
    }
}
