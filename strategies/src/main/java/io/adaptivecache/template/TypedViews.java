package io.adaptivecache.template;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheTemplate;
import io.adaptivecache.ValueCodec;

/**
 * The typed view behind {@link CacheTemplate#withCodec}, for any template: templates that wrap
 * another one (the near cache) answer {@code withCodec} with it, so that typed calls pass through
 * the wrapper's own byte[] forms.
 */
public final class TypedViews {

    private TypedViews() {
    }

    /**
     * A view that encodes values before each call of {@code template} and decodes them after.
     * @param template the template whose byte[] forms the view calls
     * @param codec the codec
     * @param <T> the value type
     * @return the view
     */
    public static <T> CacheOperations<T> of(CacheTemplate template, ValueCodec<T> codec) {
        return new CodecCacheOperations<>(template, codec);
    }
}
