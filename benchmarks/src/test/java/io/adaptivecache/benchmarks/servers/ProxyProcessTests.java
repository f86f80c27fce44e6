package io.adaptivecache.benchmarks.servers;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProxyProcessTests {

    @Test
    void theDelayChangesUnderAnOpenConnection() throws Exception {
        try (ServerSocket echo = new ServerSocket(0, 8, InetAddress.getByName("127.0.0.1"))) {
            Thread server = new Thread(() -> {
                try (Socket socket = echo.accept()) {
                    socket.setTcpNoDelay(true);
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream();
                    for (int b = in.read(); b >= 0; b = in.read()) {
                        out.write(b);
                        out.flush();
                    }
                }
                catch (Exception ex) {
                    // the test closed the connection
                }
            }, "echo");
            server.setDaemon(true);
            server.start();
            try (ProxyProcess proxy = new ProxyProcess("127.0.0.1:" + echo.getLocalPort(), 0);
                    Socket client = new Socket("127.0.0.1", proxy.port())) {
                client.setTcpNoDelay(true);
                client.setSoTimeout(10_000);
                long undelayed = roundTripNanos(client);
                proxy.delayMillis(50);
                long delayed = roundTripNanos(client);
                proxy.delayMillis(0);
                long restored = roundTripNanos(client);
                // 50 ms each way: a round trip can be no shorter than 100 ms, on the same connection.
                assertThat(TimeUnit.NANOSECONDS.toMillis(delayed)).isGreaterThanOrEqualTo(100);
                // Back to none: the connection is not stuck on the old delay (and it never was above a loopback echo before).
                assertThat(restored).isLessThan(TimeUnit.MILLISECONDS.toNanos(100));
                assertThat(undelayed).isLessThan(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    private static long roundTripNanos(Socket socket) throws Exception {
        long started = System.nanoTime();
        socket.getOutputStream().write('x');
        socket.getOutputStream().flush();
        assertThat(socket.getInputStream().read()).isEqualTo('x');
        return System.nanoTime() - started;
    }
}
