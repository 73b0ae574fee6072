// placeholder until RTMPPublisher lands
