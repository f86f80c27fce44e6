package io.adaptivecache.near;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

import io.adaptivecache.near.LocalTier.WriteTicket;

/**
 * How a write-through {@link LocalTier} decides whether an own {@code set} may keep its value: it
 * counts per stripe of keys the server's reports and this instance's writes started and in flight,
 * and a completed set's value is kept ({@link VersionedCopies#keepOwnWrite}) only if none came while
 * it was on its way. Apart from the rule for values read, which needs none of these counts, so that
 * the counts and the argument for them read in one place.
 *
 * <p>A {@code set} that completed may keep its own value locally, so that the next read of this
 * instance needs no round trip, but only until the next report of the key, which drops it like
 * every report: its own <em>echo</em> (the server's report of that very write) included. No report
 * is taken for the echo alone, because Redis does not report per write: it collects the keys
 * written during one cycle of its event loop and sends one report of them before it sleeps, so
 * that this set and another client's write of the key in the same cycle (a {@code SET},
 * {@code DEL}, {@code INCR}, {@code EXPIRE}) come as one report, the same as the echo alone would.
 *
 * <p>The value is kept only if no report of the key's stripe came while the write was on its way
 * (counted from before it was sent to the store, which runs under the key's lock, where a report
 * of the key also runs after counting itself), no other write of this instance in the stripe (of
 * any kind: set, delete, add, replace, cas, incr, decr, touch) overlapped it, and no flush came.
 * Why that is safe: the server executed the set at some moment between its sending and its reply,
 * and reports it, and any write of the key executed after it, no earlier than in the report of the
 * cycle that executed the set. No report came before the store, so that report is still to come,
 * and it drops the copy: until then the server held the value written, or a write after it is not
 * yet reported, exactly as for a value read from the server and kept (a copy of a read is dropped
 * by the same report). A report that came while the write was on its way may have been the echo
 * and a later write's together: nothing is kept. An own write of the key overlapping it may have
 * run after it, and returned before it: nothing is kept, so that a read of this instance that
 * starts after that write returned cannot see the set's value. Reports and writes are counted per
 * stripe, which errs on the side of keeping less. Otherwise the set drops the key as every other
 * write does.
 */
final class OwnWrites {

    /** The server's reports per stripe: an own set keeps its value only if none came while it was on its way. */
    private final AtomicLongArray reports = new AtomicLongArray(LocalTier.STRIPES);
    /** This instance's writes (of every kind) started, and in flight, per stripe: a set overlapping any keeps nothing. */
    private final AtomicLongArray writesStarted = new AtomicLongArray(LocalTier.STRIPES);
    private final AtomicIntegerArray writesInFlight = new AtomicIntegerArray(LocalTier.STRIPES);
    /** The tier's copies, whose epoch each ticket notes. */
    private final VersionedCopies copies;

    /**
     * The counts of one tier.
     * @param copies the tier's copies
     */
    OwnWrites(VersionedCopies copies) {
        this.copies = copies;
    }

    /** The server reported a key of the stripe; counted before the key's lock is taken. */
    void reported(int stripe) {
        reports.incrementAndGet(stripe);
    }

    /** A write that keeps nothing is about to be sent; paired with {@link #writeEnded}. */
    void writeStarted(int stripe) {
        writesInFlight.incrementAndGet(stripe);
        writesStarted.incrementAndGet(stripe);
    }

    /** A write of the stripe completed or failed. */
    void writeEnded(int stripe) {
        writesInFlight.decrementAndGet(stripe);
    }

    /**
     * A {@code set} that may keep its value is about to be sent: counted as started and in
     * flight (paired with {@link #writeEnded}), with what it sees now.
     * @param stripe its key's stripe
     * @return the ticket
     */
    WriteTicket setStarted(int stripe) {
        boolean overlapped = writesInFlight.getAndIncrement(stripe) > 0;
        long started = writesStarted.incrementAndGet(stripe);
        return new WriteTicket(stripe, reports.get(stripe), started, copies.epoch(), overlapped, System.nanoTime());
    }

    /**
     * Whether no report of the ticket's stripe came and no other own write of it started since the
     * ticket was taken; read under the key's lock, where a report of the key also runs after
     * counting itself.
     */
    boolean unchangedSince(WriteTicket ticket) {
        return reports.get(ticket.stripe()) == ticket.reports() && writesStarted.get(ticket.stripe()) == ticket.started();
    }
}
