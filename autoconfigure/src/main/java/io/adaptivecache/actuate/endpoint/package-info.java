/** The {@code adaptivecache} Actuator endpoint: each template's strategy, decisions and switches, and operator controls. */
package io.adaptivecache.actuate.endpoint;
