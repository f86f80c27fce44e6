/** The {@code adaptivecache} Actuator endpoint: each template's strategy, decisions and switches, and operator controls. */
@NullMarked
package io.adaptivecache.actuate.endpoint;

import org.jspecify.annotations.NullMarked;
