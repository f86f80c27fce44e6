/** Auto-configuration of the cache templates' health indicators. */
@NullMarked
package io.adaptivecache.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
