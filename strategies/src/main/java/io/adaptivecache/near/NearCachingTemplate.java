package io.adaptivecache.near;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheTemplate;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.call.Command;
import io.adaptivecache.call.CommandExecutor;
import io.adaptivecache.template.CommandCacheTemplate;
import io.adaptivecache.template.TypedViews;
import org.jspecify.annotations.Nullable;

/**
 * The {@link NearCacheTemplate}: a {@link LocalTier} in front of a remote template, serving only
 * while its {@link InvalidationSubscription} says so.
 *
 * <p>A read of a covered key, while serving: a current local copy answers it (as a copy of the
 * array); otherwise the key's version and the tier's epoch are taken, the read is sent, and the
 * reply is kept only if neither changed meanwhile. While not serving, reads go to the server and
 * nothing is kept. A write of a covered key drops the local copy before it is sent and again when
 * it completes, so that a read overlapping the write cannot keep the old value.
 *
 * <p>Where the invalidation source can tell a key's remaining time to live on the server (Redis),
 * it is asked together with each read that may be kept, and the copy lives no longer than the key
 * does there: the server reports an expiry only when it deletes the key, which may be long after.
 *
 * <p><b>Parts.</b> This class only routes each command to its path, so that the argument for each
 * path reads in one class: {@link SingleFlightReads} (get, joining a read of the key on its way),
 * {@link MultiKeyReads} (getAll), both keeping what they read by the rules of {@link ReadKeeping}
 * (versions, epoch, the server's time to live), and {@link WritePath} (every write, own sets).
 */
final class NearCachingTemplate extends CommandCacheTemplate implements NearCacheTemplate {

    private final String name;
    private final CacheTemplate remote;
    /** The remote template's commands: every command this template does not answer itself is passed on as it is. */
    private final CommandExecutor remoteCommands;
    private final LocalTier tier;
    private final InvalidationSubscription subscription;
    private final Duration stalenessBound;
    private final SingleFlightReads reads;
    private final MultiKeyReads multiReads;
    private final WritePath writes;
    private final String description;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * A near cache.
     * @param name its name
     * @param remote the template behind it
     * @param tier its local tier
     * @param subscription says when the tier may serve
     * @param stalenessBound how stale a read may be; reads join a read on its way only if it was sent within it
     * @param expiries asked for the remaining time to live of each key read, or {@code null}
     * @param description for {@link #toString()}
     */
    NearCachingTemplate(String name, CacheTemplate remote, LocalTier tier, InvalidationSubscription subscription,
            Duration stalenessBound, @Nullable InvalidationSource expiries, String description) {
        this.name = Objects.requireNonNull(name, "name");
        this.remote = Objects.requireNonNull(remote, "remote");
        if (!(remote instanceof CommandExecutor commands)) {
            throw new IllegalArgumentException("A near cache goes in front of a template this library built; " + remote
                    + " is not one");
        }
        this.remoteCommands = commands;
        this.tier = Objects.requireNonNull(tier, "tier");
        this.subscription = Objects.requireNonNull(subscription, "subscription");
        this.stalenessBound = Objects.requireNonNull(stalenessBound, "stalenessBound");
        ReadKeeping keeping = new ReadKeeping(tier, expiries);
        this.reads = new SingleFlightReads(remote, tier, subscription, stalenessBound.toNanos(), keeping);
        this.multiReads = new MultiKeyReads(remote, tier, subscription, keeping);
        this.writes = new WritePath(remote, tier, subscription);
        this.description = description;
    }

    /** The local tier, for tests in this package. */
    LocalTier tier() {
        return tier;
    }

    // ---- reads and sets: each takes its own path

    @Override
    public byte[] get(String key) {
        return reads.get(key);
    }

    @Override
    public CompletableFuture<byte[]> getAsync(String key) {
        return reads.getAsync(key);
    }

    @Override
    public Map<String, byte[]> getAll(Collection<String> keys) {
        return multiReads.getAll(keys);
    }

    @Override
    public CompletableFuture<Map<String, byte[]>> getAllAsync(Collection<String> keys) {
        return multiReads.getAllAsync(keys);
    }

    @Override
    public void set(String key, byte[] value, Duration ttl) {
        writes.set(key, value, ttl);
    }

    @Override
    public CompletableFuture<Void> setAsync(String key, byte[] value, Duration ttl) {
        return writes.setAsync(key, value, ttl);
    }

    // ---- every command, as a value: get, getAll and set take their paths above; other reads pass; writes drop the copy

    @Override
    @SuppressWarnings("unchecked")
    public <T extends @Nullable Object> T execute(Command<T> command) {
        if (command instanceof Command.Get get) {
            return (T) get(get.key());
        }
        if (command instanceof Command.GetAll all) {
            return (T) getAll(all.keys());
        }
        if (command instanceof Command.Set set) {
            set(set.key(), set.value(), set.ttl());
            return null;
        }
        if (command.kind().isRead()) {
            // Any other read (gets, ...) leaves the server as it was: passed on, the local tier untouched.
            return remoteCommands.execute(command);
        }
        // A write of its key: the copy goes before it is sent and again when it completes.
        String key = ((Command.Keyed<T>) command).key();
        return writes.write(key, () -> remoteCommands.execute(command));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends @Nullable Object> CompletableFuture<T> executeAsync(Command<T> command) {
        if (command instanceof Command.Get get) {
            return (CompletableFuture<T>) getAsync(get.key());
        }
        if (command instanceof Command.GetAll all) {
            return (CompletableFuture<T>) getAllAsync(all.keys());
        }
        if (command instanceof Command.Set set) {
            return (CompletableFuture<T>) setAsync(set.key(), set.value(), set.ttl());
        }
        if (command.kind().isRead()) {
            return remoteCommands.executeAsync(command);
        }
        String key = ((Command.Keyed<T>) command).key();
        return writes.writeAsync(key, () -> remoteCommands.executeAsync(command));
    }

    // ---- the rest

    @Override
    public String name() {
        return name;
    }

    @Override
    public <T> CacheOperations<T> withCodec(ValueCodec<T> codec) {
        return TypedViews.of(this, codec);
    }

    @Override
    public CacheTemplate remote() {
        return remote;
    }

    @Override
    public boolean isServingLocally() {
        return subscription.isServing();
    }

    @Override
    public Duration stalenessBound() {
        return stalenessBound;
    }

    @Override
    public NearCacheStats stats() {
        return tier.stats();
    }

    @Override
    public void invalidateLocal() {
        tier.invalidateAll();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            subscription.close();
            tier.clear();
        }
    }

    @Override
    public String toString() {
        return "NearCacheTemplate[" + name + ", " + description + ", prefixes " + tier.prefixes() + ", over " + remote + "]";
    }
}
