package io.adaptivecache.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each transport in a JVM of its own (Lettuce chooses one per JVM): the template serves calls on
 * the transport asked for when the machine supports it, and refuses with the reason when it does
 * not; auto takes io_uring, then epoll, then NIO. The native jars for linux-x86_64 are on this
 * module's test classpath; whether the kernel allows io_uring is the machine's.
 */
class RedisTransportIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private record Run(int exit, String output) {
    }

    private static Run probe(String... transports) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), TransportProbe.class.getName(), redis.uri()));
        command.addAll(List.of(transports));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the probe JVM ends").isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static void assertServedOrRefused(RedisTransport transport) throws Exception {
        Run run = probe(transport.label());
        if (transport.isAvailable()) {
            assertThat(run.output()).contains("in-use=" + transport.label() + " read=7");
            assertThat(run.exit()).isZero();
        }
        else {
            assertThat(run.output()).contains("refused=The Redis transport " + transport.label() + " cannot be used")
                    .contains(transport.unavailability());
            assertThat(run.exit()).isEqualTo(3);
        }
    }

    @Test
    void nioShouldServeEverywhere() throws Exception {
        Run run = probe("nio");
        assertThat(run.output()).contains("in-use=nio read=7");
        assertThat(run.exit()).isZero();
    }

    @Test
    void epollShouldServeWhereTheMachineSupportsItAndBeRefusedWithTheReasonElsewhere() throws Exception {
        assertServedOrRefused(RedisTransport.EPOLL);
    }

    @Test
    void ioUringShouldServeWhereTheMachineSupportsItAndBeRefusedWithTheReasonElsewhere() throws Exception {
        assertServedOrRefused(RedisTransport.IO_URING);
    }

    @Test
    void autoShouldTakeTheFastestTransportAvailable() throws Exception {
        RedisTransport expected = RedisTransport.IO_URING.isAvailable() ? RedisTransport.IO_URING
                : RedisTransport.EPOLL.isAvailable() ? RedisTransport.EPOLL : RedisTransport.NIO;
        Run run = probe("auto");
        System.out.println("auto on this machine: " + run.output().trim() + " (epoll " + RedisTransport.EPOLL.isAvailable()
                + ", io_uring " + RedisTransport.IO_URING.isAvailable() + ")");
        assertThat(run.output()).contains("in-use=" + expected.label() + " read=7");
        assertThat(run.exit()).isZero();
    }

    @Test
    void aSecondTransportInOneJvmShouldBeRefusedNamingTheOneInUse() throws Exception {
        Run run = probe("nio", "auto", "epoll");
        assertThat(run.output().split("in-use=nio read=7", -1)).as("nio, then auto keeping what Lettuce already uses").hasSize(3);
        if (RedisTransport.EPOLL.isAvailable()) {
            assertThat(run.output()).contains("but Lettuce already uses nio in this JVM");
        }
        assertThat(run.exit()).isEqualTo(3);
    }

    @Test
    void namesShouldParseInEitherSpelling() {
        assertThat(RedisTransport.of("io-uring")).isEqualTo(RedisTransport.IO_URING);
        assertThat(RedisTransport.of("IO_URING")).isEqualTo(RedisTransport.IO_URING);
        assertThat(RedisTransport.of(" Epoll ")).isEqualTo(RedisTransport.EPOLL);
        assertThatThrownBy(() -> RedisTransport.of("kqueue")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto, nio, epoll or io_uring");
    }
}
