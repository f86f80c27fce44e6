package io.adaptivecache.redis;

import java.util.List;

import io.lettuce.core.resource.NettyCustomizer;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;

/** Several Netty customizers as one: Lettuce's client resources take a single one. */
final class NettyCustomizers {

    private NettyCustomizers() {
    }

    /**
     * A customizer that runs each given one, in order.
     * @param customizers the customizers
     * @return their composition
     */
    static NettyCustomizer of(NettyCustomizer... customizers) {
        List<NettyCustomizer> all = List.of(customizers);
        return new NettyCustomizer() {
            @Override
            public void afterBootstrapInitialized(Bootstrap bootstrap) {
                all.forEach(customizer -> customizer.afterBootstrapInitialized(bootstrap));
            }

            @Override
            public void afterChannelInitialized(Channel channel) {
                all.forEach(customizer -> customizer.afterChannelInitialized(channel));
            }
        };
    }
}
