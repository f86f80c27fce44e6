package io.adaptivecache.near;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.devservers.Sockets;

/**
 * A TCP forwarder on a loopback port whose target can be moved, as a DNS name or virtual IP is
 * moved in a failover: {@link #retarget} drops every connection it forwards, and the clients'
 * reconnections reach the new server. Plain blocking sockets, two threads per connection.
 */
final class RetargetingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "retargeting-proxy");
        thread.setDaemon(true);
        return thread;
    });
    /** Guarded by {@code this}, with {@link #open}: a connection is made to the target of the moment and dropped when it moves. */
    private int targetPort;
    private final List<Socket> open = new ArrayList<>();

    RetargetingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getByName(ServerProcess.HOST));
        threads.execute(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Forwards new connections to another server and drops every connection to the old one. */
    synchronized void retarget(int port) {
        targetPort = port;
        closeAll();
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            }
            catch (IOException ex) {
                return; // closed
            }
            Socket server;
            synchronized (this) {
                try {
                    server = new Socket(ServerProcess.HOST, targetPort);
                }
                catch (IOException ex) {
                    Sockets.closeQuietly(client);
                    continue;
                }
                open.add(client);
                open.add(server);
            }
            threads.execute(() -> pump(client, server));
            threads.execute(() -> pump(server, client));
        }
    }

    private static void pump(Socket from, Socket to) {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                out.write(buffer, 0, read);
                out.flush();
            }
        }
        catch (IOException ex) {
            // Dropped: the other direction ends too.
        }
        finally {
            Sockets.closeQuietly(from);
            Sockets.closeQuietly(to);
        }
    }

    private synchronized void closeAll() {
        open.forEach(Sockets::closeQuietly);
        open.clear();
    }

    @Override
    public void close() {
        Sockets.closeQuietly(listener);
        closeAll();
        threads.shutdownNow();
    }
}
