package io.adaptivecache.redis;

import java.util.Locale;

import io.lettuce.core.resource.Transports;
import org.jspecify.annotations.Nullable;

/**
 * The network transport Lettuce's event loops use: Java NIO, or Netty's native epoll or io_uring
 * on Linux. On this project's measurements one shared connection on io_uring reached 1.42x (50
 * threads) and 1.48x (200 threads) of NIO, epoll about 1.13x.
 *
 * <p><b>One per JVM.</b> Lettuce chooses its transport once, when its first client starts, from
 * what is on the classpath and the {@code io.lettuce.core.epoll} / {@code io.lettuce.core.iouring}
 * system properties. {@link #select} sets those properties before that moment; a later choice
 * that differs from the one Lettuce made cannot take effect and fails with an explanation.
 */
public enum RedisTransport {

    /** The fastest the machine supports: io_uring, then epoll, then NIO. */
    AUTO("auto", null),

    /** Java NIO: everywhere. */
    NIO("nio", null),

    /** Netty's epoll transport: Linux, with {@code netty-transport-native-epoll} for the machine's architecture. */
    EPOLL("epoll", "io.netty.channel.epoll.Epoll"),

    /** Netty's io_uring transport: Linux 5.x and later, with {@code netty-transport-native-io_uring} for the architecture. */
    IO_URING("io_uring", "io.netty.channel.uring.IoUring");

    private static final String EPOLL_PROPERTY = "io.lettuce.core.epoll";
    private static final String IO_URING_PROPERTY = "io.lettuce.core.iouring";
    private static final String KQUEUE_PROPERTY = "io.lettuce.core.kqueue";

    private final String label;
    // The Netty class that says whether a native transport works here; null for those that always do.
    private final @Nullable String nettyProbe;

    RedisTransport(String label, @Nullable String nettyProbe) {
        this.label = label;
        this.nettyProbe = nettyProbe;
    }

    /**
     * The name used in configuration and shown in the Actuator endpoint.
     * @return for example {@code io_uring}
     */
    public String label() {
        return this.label;
    }

    /**
     * Parses a configured name, case-insensitively, with {@code -} or {@code _}.
     * @param name such as {@code io_uring}, {@code io-uring} or {@code NIO}
     * @return the transport
     * @throws IllegalArgumentException for an unknown name
     */
    public static RedisTransport of(String name) {
        String normalized = name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        for (RedisTransport transport : values()) {
            if (transport.label.equals(normalized) || ("iouring".equals(normalized) && transport == IO_URING)) {
                return transport;
            }
        }
        throw new IllegalArgumentException("Unknown Redis transport '" + name + "': use auto, nio, epoll or io_uring");
    }

    /**
     * Whether this machine and classpath support the transport.
     * @return {@code true} if it would work here
     */
    public boolean isAvailable() {
        return unavailability() == null;
    }

    /**
     * Why the transport cannot be used here.
     * @return the reason, or {@code null} if it can
     */
    public @Nullable String unavailability() {
        if (this.nettyProbe == null) {
            return null;
        }
        try {
            Class<?> probe = Class.forName(this.nettyProbe, true, RedisTransport.class.getClassLoader());
            if (Boolean.TRUE.equals(probe.getMethod("isAvailable").invoke(null))) {
                return null;
            }
            Object cause = probe.getMethod("unavailabilityCause").invoke(null);
            return "Netty's " + this.label + " transport is on the classpath but unusable here: "
                    + (cause instanceof Throwable failure ? failure.getMessage() : "unavailable");
        }
        catch (ClassNotFoundException | LinkageError ex) {
            return "Netty's " + this.label + " transport is not on the classpath (add io.netty:netty-transport-native-"
                    + (this == EPOLL ? "epoll" : "io_uring") + " for the machine, such as classifier linux-x86_64)";
        }
        catch (ReflectiveOperationException ex) {
            return "Netty's " + this.label + " transport could not be probed: " + ex;
        }
    }

    /**
     * The transport Lettuce uses in this JVM (deciding it now if no client has started yet).
     * @return NIO, EPOLL or IO_URING
     */
    public static RedisTransport inUse() {
        String channel = Transports.socketChannelClass().getName();
        if (channel.contains(".uring.")) {
            return IO_URING;
        }
        return channel.contains(".epoll.") ? EPOLL : NIO;
    }

    /**
     * Makes Lettuce use a transport in this JVM, before its first client starts.
     * {@link #AUTO} takes the fastest available one, unless the Lettuce system properties were
     * set by hand (then they decide), and never fails.
     * @param wanted the transport wanted
     * @return the transport Lettuce uses
     * @throws IllegalStateException if an explicit transport is unavailable here, or Lettuce already chose another
     */
    public static RedisTransport select(RedisTransport wanted) {
        if (wanted == AUTO) {
            boolean setByHand = System.getProperty(EPOLL_PROPERTY) != null || System.getProperty(IO_URING_PROPERTY) != null;
            if (!setByHand) {
                direct(IO_URING.isAvailable() ? IO_URING : EPOLL.isAvailable() ? EPOLL : NIO);
            }
            return inUse();
        }
        String unavailable = wanted.unavailability();
        if (unavailable != null) {
            throw new IllegalStateException("The Redis transport " + wanted.label + " cannot be used: " + unavailable
                    + ". Use transport auto to fall back to what the machine supports.");
        }
        direct(wanted);
        RedisTransport actual = inUse();
        if (actual != wanted) {
            throw new IllegalStateException("The Redis transport " + wanted.label + " was asked for, but Lettuce already uses "
                    + actual.label + " in this JVM: it chooses once, when its first client starts. Choose the transport before"
                    + " any Lettuce client starts, or with -D" + EPOLL_PROPERTY + " and -D" + IO_URING_PROPERTY + ".");
        }
        return actual;
    }

    private static void direct(RedisTransport transport) {
        // Lettuce prefers epoll when both native transports are usable, so each is switched on or off explicitly.
        System.setProperty(EPOLL_PROPERTY, Boolean.toString(transport == EPOLL));
        System.setProperty(IO_URING_PROPERTY, Boolean.toString(transport == IO_URING));
        if (transport == NIO) {
            System.setProperty(KQUEUE_PROPERTY, "false");
        }
    }
}
