/** Health of each cache template: reachable, live strategy, and a warning while its switcher is suppressed. */
@NullMarked
package io.adaptivecache.actuate.health;

import org.jspecify.annotations.NullMarked;
