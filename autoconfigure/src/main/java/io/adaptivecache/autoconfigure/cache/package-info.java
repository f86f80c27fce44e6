/** Auto-configuration of Spring Cache over adaptive-cache templates. */
@NullMarked
package io.adaptivecache.autoconfigure.cache;

import org.jspecify.annotations.NullMarked;
