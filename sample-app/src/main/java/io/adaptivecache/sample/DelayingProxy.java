package io.adaptivecache.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy that holds every chunk of bytes for a configurable delay in each
 * direction, to stand in for a network round trip (1 ms each way is about 2 ms more per call).
 * Order is kept: each direction of each connection is one FIFO. Dev only, for the sample's page.
 */
final class DelayingProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final AtomicLong delayNanos = new AtomicLong();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean open = true;

    DelayingProxy(String targetHost, int targetPort) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        this.listener = new ServerSocket(0, 128, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(this::accept, "sample-delay-proxy-" + targetPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return this.listener.getLocalPort();
    }

    void delayMillis(long millis) {
        this.delayNanos.set(TimeUnit.MILLISECONDS.toNanos(Math.max(0, millis)));
    }

    long delayMillis() {
        return TimeUnit.NANOSECONDS.toMillis(this.delayNanos.get());
    }

    private void accept() {
        while (this.open) {
            try {
                Socket client = this.listener.accept();
                Socket server = new Socket();
                server.connect(this.target, 2000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                this.sockets.add(client);
                this.sockets.add(server);
                pump(client, server);
                pump(server, client);
            }
            catch (IOException ex) {
                // a client that went away, or the proxy closing
            }
        }
    }

    /** One direction: a reader that stamps each chunk with its release time, a writer that waits for it. */
    private void pump(Socket from, Socket to) throws IOException {
        DelayQueue<Chunk> queue = new DelayQueue<>();
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        AtomicLong sequence = new AtomicLong();
        Thread reader = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            // Never earlier than the previous chunk: a delay lowered mid-stream must not reorder bytes.
            long lastRelease = Long.MIN_VALUE;
            try {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    lastRelease = Math.max(lastRelease, System.nanoTime() + this.delayNanos.get());
                    queue.put(new Chunk(Arrays.copyOf(buffer, read), lastRelease, sequence.getAndIncrement()));
                }
            }
            catch (IOException ex) {
                // closed
            }
            queue.put(new Chunk(null, Math.max(lastRelease, System.nanoTime()), sequence.getAndIncrement()));
        }, "sample-delay-proxy-read");
        Thread writer = new Thread(() -> {
            try {
                for (;;) {
                    Chunk chunk = queue.take();
                    if (chunk.bytes() == null) {
                        break;
                    }
                    out.write(chunk.bytes());
                    out.flush();
                }
            }
            catch (IOException | InterruptedException ex) {
                // closed
            }
            closeQuietly(from);
            closeQuietly(to);
        }, "sample-delay-proxy-write");
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        }
        catch (IOException ex) {
            // already closed
        }
    }

    @Override
    public void close() {
        this.open = false;
        try {
            this.listener.close();
        }
        catch (IOException ex) {
            // already closed
        }
        this.sockets.forEach(DelayingProxy::closeQuietly);
    }

    /** Released in arrival order: equal release times fall back to the sequence number. */
    private record Chunk(byte[] bytes, long releaseAt, long sequence) implements Delayed {

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(this.releaseAt - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Chunk that = (Chunk) other;
            int byTime = Long.compare(this.releaseAt, that.releaseAt);
            return byTime != 0 ? byTime : Long.compare(this.sequence, that.sequence);
        }
    }
}
