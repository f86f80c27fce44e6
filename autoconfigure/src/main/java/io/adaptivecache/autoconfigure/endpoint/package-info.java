/** Auto-configuration of the {@code adaptivecache} Actuator endpoint. */
@NullMarked
package io.adaptivecache.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
