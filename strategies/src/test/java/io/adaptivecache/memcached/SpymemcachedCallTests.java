package io.adaptivecache.memcached;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

import io.adaptivecache.CacheServerException;
import net.spy.memcached.internal.CheckedOperationTimeoutException;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import net.spy.memcached.ops.StoreType;
import net.spy.memcached.protocol.binary.BinaryOperationFactory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How a call reads the way its spymemcached operation ended, driven the way spymemcached's I/O
 * thread drives a callback (status, then complete), on real operations that are never queued.
 */
class SpymemcachedCallTests {

    private static final BinaryOperationFactory OPERATIONS = new BinaryOperationFactory();

    @Test
    void aGetAnsweredWithAValueCompletesWithIt() {
        SpymemcachedCall.Get call = bound(new SpymemcachedCall.Get());

        call.gotData("key", 0, "value".getBytes(StandardCharsets.UTF_8));
        end(call, new OperationStatus(true, "OK", StatusCode.SUCCESS));

        assertThat(call.join()).asString(StandardCharsets.UTF_8).isEqualTo("value");
    }

    @Test
    void aGetOfAMissingKeyCompletesWithNull() {
        SpymemcachedCall.Get call = bound(new SpymemcachedCall.Get());

        end(call, new OperationStatus(false, "Not found", StatusCode.ERR_NOT_FOUND));

        assertThat(call.join()).isNull();
    }

    /** A get merged into one request learns of that request's cancellation only from its status: a failure, not a miss. */
    @Test
    void aGetWhoseMergedRequestWasCancelledFailsRatherThanReadingAsAMiss() {
        SpymemcachedCall.Get call = bound(new SpymemcachedCall.Get());

        end(call, new OperationStatus(false, "cancelled", StatusCode.CANCELLED));

        assertThatThrownBy(call::join).isInstanceOf(CancellationException.class);
    }

    @Test
    void aGetWhoseMergedRequestTimedOutFailsAsATimeout() {
        SpymemcachedCall.Get call = bound(new SpymemcachedCall.Get());

        end(call, new OperationStatus(false, "timed out", StatusCode.TIMEDOUT));

        assertThatThrownBy(call::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(CheckedOperationTimeoutException.class);
    }

    @Test
    void aCancelledOperationFailsItsCall() {
        SpymemcachedCall.Get call = new SpymemcachedCall.Get();
        Operation operation = OPERATIONS.get("key", call);
        call.bind(operation, null);

        operation.cancel();

        assertThatThrownBy(call::join).isInstanceOf(CancellationException.class);
    }

    @Test
    void aStoreIsTrueWhenDoneAndFalseOnlyWhenRefusedForTheKeysState() {
        SpymemcachedCall.Store stored = bound(new SpymemcachedCall.Store("set", "key"));
        SpymemcachedCall.Store exists = bound(new SpymemcachedCall.Store("add", "key"));
        SpymemcachedCall.Store missing = bound(new SpymemcachedCall.Store("replace", "key"));

        end(stored, new OperationStatus(true, "OK", StatusCode.SUCCESS));
        end(exists, new OperationStatus(false, "Data exists for key.", StatusCode.ERR_EXISTS));
        end(missing, new OperationStatus(false, "Not found", StatusCode.ERR_NOT_FOUND));

        assertThat(stored.join()).isTrue();
        assertThat(exists.join()).isFalse();
        assertThat(missing.join()).isFalse();
    }

    @Test
    void aStoreTheServerRefusedForAnotherReasonFailsNamingTheCommandAndKey() {
        SpymemcachedCall.Store call = bound(new SpymemcachedCall.Store("set", "big"));

        end(call, new OperationStatus(false, "Out of memory", StatusCode.ERR_NO_MEM));

        assertThatThrownBy(call::join).isInstanceOf(CompletionException.class).cause()
                .isInstanceOf(CacheServerException.class).hasMessageContaining("set of big").hasMessageContaining("Out of memory");
    }

    private static <C extends SpymemcachedCall<?>> C bound(C call) {
        Operation operation = call instanceof SpymemcachedCall.Get get ? OPERATIONS.get("key", get)
                : OPERATIONS.store(StoreType.set, "key", 0, 0, new byte[0], (SpymemcachedCall.Store) call);
        call.bind(operation, null);
        return call;
    }

    private static void end(SpymemcachedCall<?> call, OperationStatus status) {
        call.receivedStatus(status);
        call.complete();
    }
}
