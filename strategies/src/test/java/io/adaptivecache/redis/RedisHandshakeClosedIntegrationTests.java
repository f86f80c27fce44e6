package io.adaptivecache.redis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.adaptivecache.CacheAuthenticationException;
import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A connection that closes during the handshake: Lettuce then says "closed prematurely", which it
 * also says, at times, for a HELLO the server refused (the WRONGPASS lost). The template tries once
 * more, so that a refusal is reported as one; a server that really closes is still a connection
 * failure, after exactly two attempts.
 */
class RedisHandshakeClosedIntegrationTests {

    @Test
    void aServerThatClosesDuringTheHandshakeShouldBeTriedTwiceAndReportedAsAConnectionFailure() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread closer = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket socket = server.accept()) {
                        accepted.incrementAndGet();
                        socket.getInputStream().read(); // the HELLO has started to arrive: close under it
                    }
                    catch (IOException ex) {
                        return;
                    }
                }
            }, "closing-server");
            closer.setDaemon(true);
            closer.start();

            assertThatExceptionOfType(CacheConnectionException.class)
                    .isThrownBy(() -> RedisCacheTemplates.builder()
                            .uri("redis://alice:secret@127.0.0.1:" + server.getLocalPort())
                            .connectTimeout(Duration.ofSeconds(2)).commandTimeout(Duration.ofSeconds(2))
                            .strategy(StrategySpec.single()).start())
                    .satisfies(failure -> assertThat(failure).isNotInstanceOf(CacheAuthenticationException.class))
                    .withMessageContaining("Cannot connect to Redis")
                    .satisfies(failure -> assertThat(failure.getCause().getSuppressed()).as("the first attempt's failure, kept")
                            .hasSize(1));
            assertThat(accepted.get()).as("connections the server accepted").isEqualTo(2);
        }
    }
}
