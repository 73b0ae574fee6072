extension StreamURL {
    /// `url` with a stream key added: as the stream name when the address ends at the application
    /// (`rtmp://host/app`, OBS's "server" + "stream key"), else as `?key=KEY` (`&key=KEY` after a query).
    public static func adding(key: String, to url: String) -> String {
        let parsed: StreamURL
        do {
            parsed = try StreamURL(url)
        } catch .missingStreamName {
            return url.hasSuffix("/") ? url + key : url + "/" + key
        } catch {
            // Left as it is: parsing it again reports what is wrong with it.
            return url
        }
        let separator = parsed.streamName.contains("?") ? "&" : "?"
        return url + separator + "key=" + key
    }
}
