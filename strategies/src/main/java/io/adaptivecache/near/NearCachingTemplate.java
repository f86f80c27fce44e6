package io.adaptivecache.near;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
 */
final class NearCachingTemplate extends CommandCacheTemplate implements NearCacheTemplate {

    private final String name;
    private final CacheTemplate remote;
    /** The remote template's commands: every command this template does not answer itself is passed on as it is. */
    private final CommandExecutor remoteCommands;
    private final LocalTier tier;
    private final InvalidationSubscription subscription;
    private final Duration stalenessBound;
    private final long stalenessBoundNanos;
    /** Asked for a key's remaining time to live with each read that may be kept; {@code null} when it cannot tell. */
    private final @Nullable InvalidationSource expiries;
    private final String description;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Reads on their way to the server, by key: at most one per key, removed when it completes. */
    private final ConcurrentHashMap<String, Load> loads = new ConcurrentHashMap<>();

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
        this.stalenessBoundNanos = stalenessBound.toNanos();
        this.expiries = expiries;
        this.description = description;
    }

    /** The local tier, for tests in this package. */
    LocalTier tier() {
        return tier;
    }

    // ---- reads

    @Override
    public byte[] get(String key) {
        if (!tier.covers(key)) {
            return remote.get(key);
        }
        if (!subscription.isServing()) {
            tier.bypassedReads.increment();
            return countRemote(remote.get(key));
        }
        LocalTier.Entry entry = tier.lookup(key);
        if (entry != null) {
            tier.localHits.increment();
            return entry.value().clone();
        }
        tier.localMisses.increment();
        long version = tier.version(key);
        long epoch = tier.epoch();
        long sentAt = System.nanoTime();
        Load current = loads.get(key);
        if (current != null && current.answers(version, epoch, sentAt, stalenessBoundNanos)) {
            byte[] shared = current.await();
            if (shared != Load.FAILED) {
                return shared == null ? null : shared.clone();
            }
            // The other read failed: this one tries for itself.
            sentAt = System.nanoTime();
        }
        Load mine = new Load(version, epoch, sentAt);
        boolean leading = current == null ? loads.putIfAbsent(key, mine) == null : loads.replace(key, current, mine);
        byte[] value = null;
        boolean read = false;
        try {
            // The remaining time to live is asked before the read is sent, never after it.
            CompletableFuture<Long> ttl = askTimeToLive(key);
            value = countRemote(remote.get(key));
            keep(key, value, version, epoch, sentAt, ttl);
            read = true;
        }
        finally {
            if (leading) {
                // Whatever ends this read, the callers sharing it must not wait on: they try for themselves if it failed.
                // They get copies of a copy: this caller may change the array it is given.
                if (read) {
                    mine.complete(value == null ? null : value.clone());
                }
                else {
                    mine.fail();
                }
                loads.remove(key, mine);
            }
        }
        return value;
    }

    @Override
    public CompletableFuture<byte[]> getAsync(String key) {
        if (!tier.covers(key)) {
            return remote.getAsync(key);
        }
        if (!subscription.isServing()) {
            tier.bypassedReads.increment();
            return remote.getAsync(key).thenApply(this::countRemote);
        }
        LocalTier.Entry entry = tier.lookup(key);
        if (entry != null) {
            tier.localHits.increment();
            return CompletableFuture.completedFuture(entry.value().clone());
        }
        tier.localMisses.increment();
        long version = tier.version(key);
        long epoch = tier.epoch();
        Load current = loads.get(key);
        if (current != null && current.answers(version, epoch, System.nanoTime(), stalenessBoundNanos)) {
            return current.result.thenCompose(shared -> shared != Load.FAILED
                    ? CompletableFuture.completedFuture(shared == null ? null : shared.clone())
                    : loadAsync(key, version, epoch, null));
        }
        return loadAsync(key, version, epoch, current);
    }

    /** A read of the key from the server, leading the reads that start while it is on its way if it can. */
    private CompletableFuture<byte[]> loadAsync(String key, long version, long epoch, @Nullable Load current) {
        long sentAt = System.nanoTime();
        Load mine = new Load(version, epoch, sentAt);
        boolean leading = current == null ? loads.putIfAbsent(key, mine) == null : loads.replace(key, current, mine);
        CompletableFuture<byte[]> read;
        CompletableFuture<Long> ttl;
        try {
            ttl = askTimeToLive(key);
            read = remote.getAsync(key);
        }
        catch (RuntimeException ex) {
            if (leading) {
                mine.fail();
                loads.remove(key, mine);
            }
            throw ex;
        }
        return read.whenComplete((value, failure) -> {
            try {
                if (failure == null) {
                    keep(key, countRemote(value), version, epoch, sentAt, ttl);
                }
            }
            finally {
                if (leading) {
                    if (failure == null) {
                        mine.complete(value == null ? null : value.clone());
                    }
                    else {
                        mine.fail();
                    }
                    loads.remove(key, mine);
                }
            }
        });
    }

    /**
     * A read of a key on its way to the server (single flight). A read of the same key that misses
     * locally while it is on its way, with the key's version and the epoch unchanged since it was
     * sent, waits for its answer instead of sending its own: nothing that would have stopped that
     * answer from being kept locally has happened, so it is as good as a local copy would be (a
     * write of this instance that completed since bumped the version, and a report of another's
     * write did too). Under many callers this saves the server a read per caller for every key that
     * goes missing, the hot keys of a write-heavy mix above all.
     *
     * <p>Only a read sent within the staleness bound before the joining read started is joined: a
     * slow read (a pause, a retransmit, a long timeout) may have been answered before a write that
     * another instance completed since, and a tier without invalidations (memcached) has no version
     * bump to tell. A read started more than the bound after it was sent sends its own.
     */
    private static final class Load {

        /** The answer of a read that failed: the sharing reads try for themselves. */
        static final byte[] FAILED = new byte[0];

        final long version;
        final long epoch;
        final long sentAtNanos;
        final CompletableFuture<byte[]> result = new CompletableFuture<>();

        Load(long version, long epoch, long sentAtNanos) {
            this.version = version;
            this.epoch = epoch;
            this.sentAtNanos = sentAtNanos;
        }

        /** Whether a read that started at {@code nowNanos} under this version and epoch may take this read's answer. */
        boolean answers(long version, long epoch, long nowNanos, long boundNanos) {
            return this.version == version && this.epoch == epoch && nowNanos - this.sentAtNanos <= boundNanos;
        }

        void complete(byte @Nullable [] value) {
            result.complete(value);
        }

        void fail() {
            result.complete(FAILED);
        }

        /** The answer, {@code null} for an absent key, or {@link #FAILED}; the remote call's own timeout bounds the wait. */
        byte @Nullable [] await() {
            return result.join();
        }
    }

    private byte[] countRemote(byte[] value) {
        (value == null ? tier.remoteMisses : tier.remoteHits).increment();
        return value;
    }

    /** The key's remaining time to live on the server, asked now, or {@code null} when the source cannot tell. */
    private @Nullable CompletableFuture<Long> askTimeToLive(String key) {
        return expiries == null ? null : expiries.remainingTimeToLive(key);
    }

    /**
     * Keeps a value read, until the key's expiry on the server when that is asked. If the answer
     * has not come when the value has, the value is kept now, as it would be without the question,
     * and capped (or dropped) when the answer comes: the source answers before it proves any
     * heartbeat sent after the question, so that meanwhile the copy is served at most the staleness
     * bound past the moment the read was sent, when the key still lived (the caller never waits
     * for the answer, and a tracking connection slower than the data path costs no local hits).
     */
    private void keep(String key, byte @Nullable [] value, long version, long epoch, long sentAt,
            @Nullable CompletableFuture<Long> ttl) {
        if (value == null) {
            return;
        }
        // The caller owns the array it gets; the tier keeps its own.
        byte[] copy = value.clone();
        if (ttl == null) {
            tier.keep(key, copy, version, epoch, sentAt);
            return;
        }
        if (ttl.isDone()) {
            keepUntilExpiry(key, copy, version, epoch, sentAt, ttl.isCompletedExceptionally() ? null : ttl.join());
            return;
        }
        // The answer is noted before the copy is capped, and the store reads it under the key's lock: whichever of the
        // store and the answer comes second applies it, on whichever thread.
        LocalTier.ExpiryAnswer answer = new LocalTier.ExpiryAnswer();
        ttl.whenComplete((millis, failure) -> {
            long expiresAt = expiry(sentAt, failure == null ? millis : null);
            answer.set(expiresAt);
            tier.capExpiry(key, copy, expiresAt);
        });
        tier.keep(key, copy, version, epoch, sentAt, answer);
    }

    /**
     * When a copy read at {@code sentAt} expires, from the server's answer of its remaining time to
     * live; {@code sentAt} itself (already expired) when nothing may be kept.
     */
    private long expiry(long sentAt, @Nullable Long millis) {
        if (millis == null || millis < -1) {
            return sentAt;
        }
        return millis == -1 ? sentAt + tier.timeToLiveNanos() : sentAt + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /**
     * Keeps a value read for no longer than the key lives on the server. The time to live was asked
     * after {@code sentAt}: the server counted it from later still, so that {@code sentAt} plus the
     * answer is no later than the key's expiry.
     * @param millis the answer as Redis's {@code PTTL} gives it: -1 for no expiry, -2 for no such key
     *        (a value was read, so a write came between the two: nothing is kept); {@code null} if
     *        the question failed (nothing is kept)
     */
    private void keepUntilExpiry(String key, byte[] copy, long version, long epoch, long sentAt, @Nullable Long millis) {
        if (millis == null || millis < -1) {
            tier.discarded();
            return;
        }
        tier.keep(key, copy, version, epoch, sentAt, expiry(sentAt, millis));
    }

    @Override
    public Map<String, byte[]> getAll(Collection<String> keys) {
        Lookup lookup = lookUp(keys);
        if (lookup == null) {
            return countRemote(keys, remote.getAll(keys));
        }
        if (lookup.missing.isEmpty()) {
            return lookup.answer(keys, Map.of());
        }
        Map<String, byte[]> fetched = countRemote(lookup.missing.keySet(), remote.getAll(lookup.missing.keySet()));
        lookup.keep(fetched);
        return lookup.answer(keys, fetched);
    }

    @Override
    public CompletableFuture<Map<String, byte[]>> getAllAsync(Collection<String> keys) {
        Lookup lookup = lookUp(keys);
        if (lookup == null) {
            return remote.getAllAsync(keys).thenApply(fetched -> countRemote(keys, fetched));
        }
        if (lookup.missing.isEmpty()) {
            return CompletableFuture.completedFuture(lookup.answer(keys, Map.of()));
        }
        return remote.getAllAsync(lookup.missing.keySet()).thenApply(fetched -> {
            countRemote(lookup.missing.keySet(), fetched);
            lookup.keep(fetched);
            return lookup.answer(keys, fetched);
        });
    }

    /**
     * Answers what the local tier can of a getAll and takes the versions of the rest.
     * @return the lookup, or {@code null} when the whole call must go to the server as it is:
     *     the local tier is not serving, or the keys are for the remote template to refuse
     */
    private Lookup lookUp(Collection<String> keys) {
        if (keys == null || keys.isEmpty()) {
            return null;
        }
        if (!subscription.isServing()) {
            for (String key : keys) {
                if (tier.covers(key)) {
                    tier.bypassedReads.increment();
                }
            }
            return null;
        }
        // A null or repeated key: the remote template refuses the call, with its own message.
        HashSet<String> distinct = new HashSet<>(keys.size() * 2);
        for (String key : keys) {
            if (key == null || !distinct.add(key)) {
                return null;
            }
        }
        Lookup lookup = new Lookup(tier.epoch());
        lookup.sentAt = System.nanoTime();
        for (String key : keys) {
            if (!tier.covers(key)) {
                lookup.missing.put(key, Lookup.NOT_KEPT);
                continue;
            }
            LocalTier.Entry entry = tier.lookup(key);
            if (entry != null) {
                tier.localHits.increment();
                lookup.hits.put(key, entry.value().clone());
            }
            else {
                tier.localMisses.increment();
                lookup.missing.put(key, tier.version(key));
                CompletableFuture<Long> ttl = askTimeToLive(key);
                if (ttl != null) {
                    lookup.ttls.put(key, ttl);
                }
            }
        }
        return lookup;
    }

    private Map<String, byte[]> countRemote(Collection<String> asked, Map<String, byte[]> found) {
        if (asked != null) {
            for (String key : asked) {
                if (tier.covers(key)) {
                    (found.containsKey(key) ? tier.remoteHits : tier.remoteMisses).increment();
                }
            }
        }
        return found;
    }

    /** One getAll: the local hits, and the keys to fetch with the version each was sent under. */
    private final class Lookup {

        /** Marks a key outside the tier's prefixes: fetched, never kept. */
        static final Long NOT_KEPT = Long.MIN_VALUE;

        final long epoch;
        final Map<String, byte[]> hits = new LinkedHashMap<>();
        final Map<String, Long> missing = new LinkedHashMap<>();
        /** The remaining times to live asked with the read, by key, when the source can tell. */
        final Map<String, CompletableFuture<Long>> ttls = new java.util.HashMap<>();
        long sentAt;

        Lookup(long epoch) {
            this.epoch = epoch;
        }

        void keep(Map<String, byte[]> fetched) {
            missing.forEach((key, version) -> {
                if (version != NOT_KEPT) {
                    NearCachingTemplate.this.keep(key, fetched.get(key), version, epoch, sentAt, ttls.get(key));
                }
            });
        }

        /** The answer in the order of {@code keys}, absent keys left out, as the remote template answers. */
        Map<String, byte[]> answer(Collection<String> keys, Map<String, byte[]> fetched) {
            Map<String, byte[]> answer = new LinkedHashMap<>(keys.size() * 2);
            for (String key : keys) {
                byte[] value = hits.get(key);
                if (value == null) {
                    value = fetched.get(key);
                }
                if (value != null) {
                    answer.put(key, value);
                }
            }
            return answer;
        }
    }

    // ---- writes: the local copy goes before the write is sent and again when it completes

    // Every tier.beforeWrite is paired with a tier.afterWrite, also when the call throws before anything was sent: a
    // write-through tier counts the writes in flight, and a set overlapping one keeps nothing.

    private boolean beforeWrite(String key) {
        if (!tier.covers(key)) {
            return false;
        }
        tier.beforeWrite(key);
        return true;
    }

    private <T> CompletableFuture<T> afterWrite(String key, boolean covered, CompletableFuture<T> write) {
        return covered ? write.whenComplete((result, failure) -> tier.afterWrite(key)) : write;
    }

    /** Sends an asynchronous write of a key {@link #beforeWrite} covered, pairing it with its afterWrite whatever happens. */
    private <T> CompletableFuture<T> writeAsync(String key, java.util.function.Supplier<CompletableFuture<T>> write) {
        boolean covered = beforeWrite(key);
        CompletableFuture<T> sent;
        try {
            sent = write.get();
        }
        catch (RuntimeException ex) {
            // Refused before anything was sent (bad input): nothing in flight any more.
            if (covered) {
                tier.afterWrite(key);
            }
            throw ex;
        }
        return afterWrite(key, covered, sent);
    }

    // A set that completes may keep its own value (a write-through tier, see LocalTier) until the next report of its
    // key: the next read of this instance then needs no round trip. Only while serving; a copy of a value given a
    // time to live lives no longer than that, counted from when the set was sent.

    @Override
    public void set(String key, byte[] value, Duration ttl) {
        if (!tier.covers(key)) {
            remote.set(key, value, ttl);
            return;
        }
        LocalTier.WriteTicket ticket = tier.beforeSet(key, subscription.isServing());
        boolean written = false;
        try {
            remote.set(key, value, ttl);
            written = true;
        }
        finally {
            tier.afterSet(key, ticket, written && ticket != null ? ownCopy(value, ttl) : null, ttlNanos(ttl));
        }
    }

    @Override
    public CompletableFuture<Void> setAsync(String key, byte[] value, Duration ttl) {
        if (!tier.covers(key)) {
            return remote.setAsync(key, value, ttl);
        }
        LocalTier.WriteTicket ticket = tier.beforeSet(key, subscription.isServing());
        // Copied now: the caller may change its array once the call has returned.
        byte[] copy = ticket != null ? ownCopy(value, ttl) : null;
        long ttlNanos = ttlNanos(ttl);
        CompletableFuture<Void> write;
        try {
            write = remote.setAsync(key, value, ttl);
        }
        catch (RuntimeException ex) {
            // Refused before anything was sent (bad input): nothing in flight any more.
            tier.afterSet(key, ticket, null, 0);
            throw ex;
        }
        return write.whenComplete((result, failure) -> tier.afterSet(key, ticket,
                failure == null && subscription.isServing() ? copy : null, ttlNanos));
    }

    /** The value to keep after an own set, or {@code null} to keep nothing. */
    private byte @Nullable [] ownCopy(byte[] value, Duration ttl) {
        if (value == null || ttl == null || ttl.isNegative() || !subscription.isServing()) {
            return null;
        }
        return value.clone();
    }

    /** A set's time to live on the server in nanoseconds, 0 for none (or one the template refuses). */
    private static long ttlNanos(Duration ttl) {
        return ttl == null || ttl.isNegative() ? 0 : ttl.toNanos();
    }

    // ---- every command, as a value: reads and sets take their paths above; any other command changes its key

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
        if (command instanceof Command.Gets) {
            return remoteCommands.execute(command);
        }
        // A write of its key (and, by default, any command added later: dropping a copy is always safe).
        String key = ((Command.Keyed<T>) command).key();
        boolean covered = beforeWrite(key);
        try {
            return remoteCommands.execute(command);
        }
        finally {
            if (covered) {
                tier.afterWrite(key);
            }
        }
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
        if (command instanceof Command.Gets) {
            return remoteCommands.executeAsync(command);
        }
        String key = ((Command.Keyed<T>) command).key();
        return writeAsync(key, () -> remoteCommands.executeAsync(command));
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
