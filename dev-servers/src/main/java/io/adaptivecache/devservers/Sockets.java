package io.adaptivecache.devservers;

import java.io.Closeable;
import java.io.IOException;

/** What the proxies here and in the tests do with sockets alike. */
public final class Sockets {

    private Sockets() {
    }

    /**
     * Closes a socket (or listener) whose end is wanted whatever state it is in: a proxy dropping a
     * connection whose other side may have gone, or closing down. A failure to close means it was
     * closed already or is broken, and either way it is gone.
     * @param socket the socket to close
     */
    public static void closeQuietly(Closeable socket) {
        try {
            socket.close();
        }
        catch (IOException ex) {
            // Closed already, or broken: gone either way.
        }
    }
}
