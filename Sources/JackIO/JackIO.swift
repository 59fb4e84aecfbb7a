import HostCore
