package io.adaptivecache.devservers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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
 * Order is kept: each direction of each connection is one FIFO, served by a reader thread that
 * stamps each chunk with its release time and a writer thread that waits for it.
 *
 * <p>The sample runs it in its own JVM to show a slow network; the benchmarks run it as a
 * separate process ({@link #main}) so that its threads and CPU are not counted as the client's.
 */
public final class DelayingProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final AtomicLong delayNanos = new AtomicLong();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean open = true;

    /**
     * Starts a proxy on a free loopback port, without delay until {@link #delayMillis(long)} sets one.
     * @param targetHost the server's host
     * @param targetPort the server's port
     * @throws IOException if no port can be bound
     */
    public DelayingProxy(String targetHost, int targetPort) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        this.listener = new ServerSocket(0, 128, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(this::accept, "delay-proxy-" + targetPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @return the loopback port clients connect to */
    public int port() {
        return this.listener.getLocalPort();
    }

    /**
     * Sets the delay added in each direction, for bytes read from now on.
     * @param millis the delay; negative counts as none
     */
    public void delayMillis(long millis) {
        this.delayNanos.set(TimeUnit.MILLISECONDS.toNanos(Math.max(0, millis)));
    }

    /** @return the delay added in each direction */
    public long delayMillis() {
        return TimeUnit.NANOSECONDS.toMillis(this.delayNanos.get());
    }

    /**
     * Runs a proxy as its own process: prints {@code port N} on standard output once it listens,
     * takes {@code delay MILLIS} lines on standard input to change the delay while connections
     * stay open (answering {@code ok} on standard output), and exits when standard input closes
     * (its parent went away).
     * @param args {@code host:port} of the server and the delay in milliseconds each way
     * @throws IOException if no port can be bound
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !args[0].contains(":")) {
            System.err.println("usage: DelayingProxy <host:port> <delay-millis>");
            System.exit(2);
        }
        int colon = args[0].lastIndexOf(':');
        try (DelayingProxy proxy = new DelayingProxy(args[0].substring(0, colon), Integer.parseInt(args[0].substring(colon + 1)))) {
            proxy.delayMillis(Long.parseLong(args[1]));
            System.out.println("port " + proxy.port());
            System.out.flush();
            // The parent holds our standard input open for as long as it needs the proxy.
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                String[] words = line.trim().split("\\s+");
                if (words.length == 2 && words[0].equals("delay")) {
                    proxy.delayMillis(Long.parseLong(words[1]));
                    System.out.println("ok");
                    System.out.flush();
                }
            }
        }
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
        }, "delay-proxy-read");
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
            Sockets.closeQuietly(from);
            Sockets.closeQuietly(to);
        }, "delay-proxy-write");
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    @Override
    public void close() {
        this.open = false;
        Sockets.closeQuietly(this.listener);
        this.sockets.forEach(Sockets::closeQuietly);
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
