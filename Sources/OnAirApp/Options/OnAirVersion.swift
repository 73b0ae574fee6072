/// The version `onair --version` prints; bumped with each CHANGELOG release.
public enum OnAirVersion {
    public static let current = "0.1.0-dev"
}
