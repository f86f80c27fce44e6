package io.adaptivecache.micrometer;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.management.CallSite;
import io.adaptivecache.management.CallInterceptor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Makes each call of a template a Micrometer {@link Observation} ({@value DefaultCacheCallObservationConvention#NAME}),
 * so that an application with tracing sees cache calls as spans and, with a meter handler, as
 * timers. Attach it with {@link CacheTemplateManagement#interceptCallsWith}; a template without it
 * creates no observation at all. The observation starts when the call is made and stops when its
 * future completes (on the client's thread for an async call), before the caller sees the result;
 * it is in scope while the call is issued, so that a client's own observations nest under it.
 * Its tags are those of {@link CacheCallObservationDocumentation.LowCardinalityKeys}; a key or a
 * value is never given to it.
 */
public final class CacheCallObservations implements CallInterceptor {

    private final ObservationRegistry registry;
    private final @Nullable CacheCallObservationConvention convention;

    /**
     * Observes with the default convention.
     * @param registry the registry
     */
    public CacheCallObservations(ObservationRegistry registry) {
        this(registry, null);
    }

    /**
     * Observes with a convention of the application's.
     * @param registry the registry
     * @param convention names and tags the observations, or {@code null} for {@link DefaultCacheCallObservationConvention}
     */
    public CacheCallObservations(ObservationRegistry registry, @Nullable CacheCallObservationConvention convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = convention;
    }

    @Override
    public <T extends @Nullable Object> CompletableFuture<T> intercept(CallSite site, CacheCommand command,
            boolean async, boolean degradable, Supplier<CompletableFuture<T>> invocation) {
        CacheCallContext context = new CacheCallContext(site.template(), site.backendKind(), command, site.strategy().type(),
                async);
        Observation observation = CacheCallObservationDocumentation.CACHE_CALL.observation(this.convention,
                DefaultCacheCallObservationConvention.INSTANCE, () -> context, this.registry).start();
        CompletableFuture<T> result;
        try (Observation.Scope scope = observation.openScope()) {
            result = invocation.get();
        }
        catch (RuntimeException | Error ex) {
            stop(observation, context, command, degradable, null, ex);
            throw ex;
        }
        return result.whenComplete((value, failure) -> stop(observation, context, command, degradable, value, failure));
    }

    private static void stop(Observation observation, CacheCallContext context, CacheCommand command, boolean degradable,
            @Nullable Object value, @Nullable Throwable failure) {
        if (failure == null) {
            context.setOutcome(missed(command, value) ? CacheCallContext.Outcome.MISS : CacheCallContext.Outcome.SUCCESS);
        }
        else {
            Throwable cause = unwrap(failure);
            context.setOutcome(outcome(cause, degradable));
            observation.error(cause);
        }
        observation.stop();
    }

    private static boolean missed(CacheCommand command, @Nullable Object value) {
        return switch (command) {
            case GET, GETS -> value == null;
            case GET_ALL -> value instanceof Map<?, ?> found && found.isEmpty();
            default -> false;
        };
    }

    private static CacheCallContext.Outcome outcome(Throwable cause, boolean degradable) {
        if (cause instanceof CacheRejectedException) {
            return CacheCallContext.Outcome.REJECTED;
        }
        // As the template decides: only the cache failing is degraded, never a misuse or a bug.
        if (degradable && cause instanceof CacheException && !(cause instanceof InvalidCacheInputException)) {
            return CacheCallContext.Outcome.DEGRADED;
        }
        return CacheCallContext.Outcome.ERROR;
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
