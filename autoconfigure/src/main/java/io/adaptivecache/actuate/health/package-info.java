/** Health of each cache template: reachable, live strategy, and a warning while its switcher is suppressed. */
package io.adaptivecache.actuate.health;
