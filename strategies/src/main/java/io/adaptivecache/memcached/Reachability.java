package io.adaptivecache.memcached;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;

import io.adaptivecache.CacheConnectionException;

/**
 * Whether any memcached server of a template accepts a TCP connection, asked with a plain socket
 * that is closed at once. Both drivers log every failed connection of a client (XMemcached with
 * two stack traces), so a template that started without its server asks this before building a
 * client for each retry.
 */
final class Reachability {

    private Reachability() {
    }

    /**
     * Returns once one server accepts a connection.
     * @throws CacheConnectionException naming the servers and the last refusal otherwise
     */
    static void check(List<InetSocketAddress> addresses, Duration connectTimeout, String description) {
        IOException last = null;
        int timeout = (int) Math.min(Math.max(connectTimeout.toMillis(), 1), Integer.MAX_VALUE);
        for (InetSocketAddress address : addresses) {
            try (Socket socket = new Socket()) {
                socket.connect(address.isUnresolved() ? new InetSocketAddress(address.getHostString(), address.getPort()) : address,
                        timeout);
                return;
            }
            catch (IOException ex) {
                last = ex;
            }
        }
        throw new CacheConnectionException("Cannot connect to any memcached server of " + description
                + (last != null && last.getMessage() != null ? ": " + last.getMessage() : ""), last);
    }
}
