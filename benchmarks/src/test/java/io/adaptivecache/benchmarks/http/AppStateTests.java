package io.adaptivecache.benchmarks.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AppStateTests {

    @Test
    void readsTheEndpointsLine() {
        AppState state = AppState.parse("compile_ms=812 loads=10000 strategy=MULTI(2) switches=1 transport=io_uring\n");

        assertThat(state).isEqualTo(new AppState(812, 10_000, "MULTI(2)", 1, "io_uring"));
    }

    @Test
    void aMissingWordIsAnError() {
        assertThatIllegalArgumentException().isThrownBy(() -> AppState.parse("compile_ms=812 strategy=- switches=0 transport=nio"))
                .withMessageContaining("no loads");
    }
}
