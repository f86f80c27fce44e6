package io.adaptivecache.autoconfigure;

import java.util.List;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * The defaults of a properties section that is a value bound through its constructor, made the
 * way the binder makes them: by binding it from no properties at all, so that its
 * {@code @DefaultValue} annotations are the one place its defaults are written.
 */
final class PropertyDefaults {

    private static final Binder NO_PROPERTIES = new Binder(List.of());

    private PropertyDefaults() {
    }

    /**
     * The section with every property at its default.
     * @param <T> the section's type
     * @param type a type bound through its constructor
     * @return the section as bound when none of its properties is set
     */
    static <T> T of(Class<T> type) {
        return NO_PROPERTIES.bindOrCreate("defaults", Bindable.of(type));
    }
}
