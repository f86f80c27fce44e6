package io.adaptivecache.adaptive;

import java.util.Collection;

import org.jspecify.annotations.Nullable;

/**
 * The adaptive switcher of every cache template, by template name: what management tools (the
 * Actuator endpoint and health indicators) read, so that they need not know who creates and
 * starts the switchers.
 */
public interface StrategySwitchers {

    /**
     * The switcher of a template.
     * @param name the template's name
     * @return the switcher, or {@code null} if there is none
     */
    @Nullable StrategySwitcher get(String name);

    /**
     * Every switcher.
     * @return the switchers, in template order
     */
    Collection<StrategySwitcher> all();

    /**
     * Where an operator raises a template's connection limit ({@link StrategySwitcher#connectionLimit()}),
     * for messages that tell them so.
     * @param name the template's name
     * @return the setting, such as a property name, or {@code null} if none configures it
     */
    @Nullable String connectionLimitProperty(String name);
}
