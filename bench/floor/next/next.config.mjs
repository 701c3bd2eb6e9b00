/** @type {import('next').NextConfig} */
export default {
  serverExternalPackages: ["pg"],
  poweredByHeader: false,
};
