/**
 * The adaptive switcher: a pure, deterministic {@link io.adaptivecache.adaptive.StrategyPolicy}
 * that turns one window of measurements and the time into a
 * {@link io.adaptivecache.adaptive.Decision}, and the
 * {@link io.adaptivecache.adaptive.StrategySwitcher} that samples windows and carries decisions
 * out through the template's swap mechanism.
 */
@NullMarked
package io.adaptivecache.adaptive;

import org.jspecify.annotations.NullMarked;
