package io.adaptivecache.redis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.Command;
import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.NoIoConnections;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A Jedis-pooled template's factory of bound connections hands a shared strategy's opening to its driver whole. */
class BoundConnectionTests {

    @Test
    void aSharedStrategysConnectionsShouldBeOpenedTogetherByTheDriver() {
        List<String> calls = new ArrayList<>();
        ConnectionFactory<String> driver = new NoIoConnections<>("driver") {

            @Override
            public String open() {
                calls.add("open");
                return "alone";
            }

            @Override
            public List<String> openShared(int count) {
                // Where Lettuce's factory places them apart: one at a time through open() it could not.
                calls.add("openShared(" + count + ")");
                return Collections.nCopies(count, "together");
            }
        };
        CacheCommands<String> commands = new CacheCommands<>() {

            @Override
            public <T extends @Nullable Object> CompletionStage<T> execute(String connection, Command<T> command) {
                return new CompletableFuture<>();
            }
        };

        List<BoundConnection<?>> opened = new BoundConnection.Factory<>(driver, commands).openShared(3);

        assertThat(calls).containsExactly("openShared(3)");
        assertThat(opened).extracting(Object::toString).containsExactly("together", "together", "together");
    }
}
