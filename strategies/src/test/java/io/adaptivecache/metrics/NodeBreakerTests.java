package io.adaptivecache.metrics;

import java.time.Duration;

import io.adaptivecache.call.CallOutcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/** The per-node breaker's transitions, without a server: what the cluster tests rely on. */
class NodeBreakerTests {

    private static final Duration OPEN = Duration.ofMillis(200);

    @Test
    void itShouldOpenOnlyAfterTheThresholdOfUnansweredCallsInARow() {
        NodeBreaker breaker = new NodeBreaker("127.0.0.1:1", new NodeBreaker.Settings(3, OPEN));
        fail(breaker, CallOutcome.TIMEOUT);
        fail(breaker, CallOutcome.CONNECTION_FAILURE);
        // An error reply is an answer: the count starts again.
        breaker.onOutcome(CallOutcome.SERVER_ERROR, breaker.acquire());
        fail(breaker, CallOutcome.TIMEOUT);
        fail(breaker, CallOutcome.TIMEOUT);
        assertThat(breaker.state()).isEqualTo("CLOSED");
        // Refused or never sent calls say nothing about the node either way.
        breaker.onOutcome(CallOutcome.REJECTED, breaker.acquire());
        fail(breaker, CallOutcome.TIMEOUT);
        assertThat(breaker.state()).isEqualTo("OPEN");
        assertThat(breaker.acquire()).isEqualTo(NodeBreaker.REFUSED);
        assertThat(breaker.refusedCalls()).isEqualTo(1);
    }

    @Test
    void anOpenBreakerShouldLetOneTrialThroughAndCloseWhenItIsAnswered() {
        NodeBreaker breaker = open();
        await().atMost(Duration.ofSeconds(5)).until(() -> breaker.state().equals("HALF_OPEN"));
        assertThat(breaker.acquire()).isEqualTo(NodeBreaker.TRIAL);
        assertThat(breaker.acquire()).as("one trial at a time").isEqualTo(NodeBreaker.REFUSED);
        breaker.onOutcome(CallOutcome.SUCCESS, NodeBreaker.TRIAL);
        assertThat(breaker.state()).isEqualTo("CLOSED");
        assertThat(breaker.acquire()).isEqualTo(NodeBreaker.PERMITTED);
    }

    @Test
    void aFailedTrialShouldOpenItAgainAndATrialNeverSentShouldLeaveTheNextCallerTheTrial() {
        NodeBreaker breaker = open();
        await().atMost(Duration.ofSeconds(5)).until(() -> breaker.state().equals("HALF_OPEN"));
        int trial = breaker.acquire();
        assertThat(trial).isEqualTo(NodeBreaker.TRIAL);
        breaker.onOutcome(CallOutcome.REJECTED, trial);
        int next = breaker.acquire();
        assertThat(next).isEqualTo(NodeBreaker.TRIAL);
        breaker.onOutcome(CallOutcome.TIMEOUT, next);
        assertThat(breaker.state()).isEqualTo("OPEN");
        assertThat(breaker.acquire()).isEqualTo(NodeBreaker.REFUSED);
    }

    @Test
    void retiringShouldCloseAnOpenBreaker() {
        NodeBreaker breaker = open();
        breaker.retire("its slots are served by 127.0.0.1:2 now");
        assertThat(breaker.isOpen()).isFalse();
        assertThat(breaker.acquire()).isEqualTo(NodeBreaker.PERMITTED);
    }

    @Test
    void aThresholdOfZeroShouldNeverOpen() {
        NodeBreaker breaker = new NodeBreaker("127.0.0.1:1", NodeBreaker.Settings.DISABLED);
        for (int i = 0; i < 100; i++) {
            fail(breaker, CallOutcome.TIMEOUT);
        }
        assertThat(breaker.state()).isEqualTo("CLOSED");
    }

    @Test
    void badSettingsShouldBeRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new NodeBreaker.Settings(-1, OPEN)).withMessageContaining("-1");
        assertThatIllegalArgumentException().isThrownBy(() -> new NodeBreaker.Settings(5, Duration.ZERO))
                .withMessageContaining("positive");
    }

    private static NodeBreaker open() {
        NodeBreaker breaker = new NodeBreaker("127.0.0.1:1", new NodeBreaker.Settings(2, OPEN));
        fail(breaker, CallOutcome.TIMEOUT);
        fail(breaker, CallOutcome.TIMEOUT);
        assertThat(breaker.state()).isEqualTo("OPEN");
        return breaker;
    }

    private static void fail(NodeBreaker breaker, CallOutcome outcome) {
        int permit = breaker.acquire();
        assertThat(permit).isEqualTo(NodeBreaker.PERMITTED);
        breaker.onOutcome(outcome, permit);
    }
}
